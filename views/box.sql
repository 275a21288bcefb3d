-- box: the Box projection of book.documents (store = 'box'): every folder on the way to a
-- document, and one file record per document. The bytes (content, size, sha1, sha256) are
-- rendered from the book by the seed (cfab.apps.docs) right after these statements; ids are
-- functions of natural keys (cfab.apps.docs.common.box_id): folders of their path, files and
-- versions of the document id. Timestamps: the document's date at 09:00.

INSERT INTO box.folders
SELECT '0', 'All Files', NULL, NULL, NULL,
       coalesce(min(d.created_date), (SELECT CAST(min(value) AS DATE) FROM cfab_internal.meta WHERE key = 'clock'), DATE '2026-01-31')
           + INTERVAL 8 HOUR,
       coalesce(min(d.created_date), (SELECT CAST(min(value) AS DATE) FROM cfab_internal.meta WHERE key = 'clock'), DATE '2026-01-31')
           + INTERVAL 8 HOUR,
       'admin@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       'active'
FROM book.documents d
WHERE d.store = 'box';

INSERT INTO box.folders
WITH docs AS (
    SELECT string_split(trim(folder, '/'), '/') AS segs, created_date
    FROM book.documents
    WHERE store = 'box' AND trim(folder, '/') <> ''
),
prefixes AS (
    SELECT '/' || array_to_string(segs[1:n], '/') AS path,
           segs[n] AS name,
           CASE WHEN n = 1 THEN '/' ELSE '/' || array_to_string(segs[1:n - 1], '/') END AS parent_path,
           created_date
    FROM docs, LATERAL (SELECT unnest(range(1, len(segs) + 1)) AS n)
),
folders AS (
    SELECT path, any_value(name) AS name, any_value(parent_path) AS parent_path, min(created_date) AS created
    FROM prefixes
    GROUP BY path
)
SELECT (100000000000 + md5_number('box:folder:' || f.path) % 900000000000)::VARCHAR AS id,
       f.name,
       CASE WHEN f.parent_path = '/' THEN '0'
            ELSE (100000000000 + md5_number('box:folder:' || f.parent_path) % 900000000000)::VARCHAR END,
       f.parent_path,
       NULL,
       f.created + INTERVAL 8 HOUR,
       f.created + INTERVAL 8 HOUR,
       'admin@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       'active'
FROM folders f
ORDER BY f.path;

INSERT INTO box.files
WITH docs AS (
    SELECT d.*, CASE WHEN trim(d.folder, '/') = '' THEN '/' ELSE '/' || trim(d.folder, '/') END AS path,
           coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com') AS domain
    FROM book.documents d
    WHERE d.store = 'box'
)
SELECT (100000000000 + md5_number('box:file:' || d.document_id) % 900000000000)::VARCHAR AS id,
       d.filename,
       CASE WHEN d.path = '/' THEN '0'
            ELSE (100000000000 + md5_number('box:folder:' || d.path) % 900000000000)::VARCHAR END,
       d.path,
       CASE WHEN contains(trim(d.filename, '.'), '.') THEN lower(regexp_extract(d.filename, '\.([^.]+)$', 1)) ELSE '' END,
       d.title,
       NULL, NULL, NULL,
       1,
       (100000000000 + md5_number('box:version:' || d.document_id || ':1') % 900000000000)::VARCHAR,
       d.created_date + INTERVAL 9 HOUR,
       d.created_date + INTERVAL 9 HOUR,
       d.created_date + INTERVAL 9 HOUR,
       CASE WHEN d.doc_type IN ('invoice', 'coi', 'lien_waiver') THEN 'ap@'
            WHEN d.doc_type = 'wh347' THEN 'payroll@'
            WHEN d.doc_type IN ('policy', 'workbook') THEN 'controller@'
            ELSE 'pm@' END || d.domain,
       CASE WHEN d.doc_type IN ('invoice', 'coi', 'lien_waiver') THEN 'ap@'
            WHEN d.doc_type = 'wh347' THEN 'payroll@'
            WHEN d.doc_type IN ('policy', 'workbook') THEN 'controller@'
            ELSE 'pm@' END || d.domain,
       'active',
       NULL
FROM docs d
ORDER BY d.document_id;
