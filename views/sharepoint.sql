-- sharepoint: the SharePoint projection of book.documents (store = 'sharepoint'): one site with
-- one document library, every folder on the way to a document, one driveItem per document.
-- The bytes (content, size, hashes) are rendered from the book by the seed (cfab.apps.docs)
-- right after these statements. Ids are functions of natural keys
-- (cfab.apps.docs.common.graph_id): folders of their path, files of the document id.

INSERT INTO sharepoint.sites
SELECT 'companya.sharepoint.com,' || g1 || ',' || g2, 'CompanyA', c.name,
       'Company documents: contracts, certified payroll, policies',
       'https://companya.sharepoint.com/sites/CompanyA', DATE '2024-01-02' + INTERVAL 9 HOUR
FROM (SELECT coalesce(min(name), 'Company A Construction, Inc.') AS name FROM book.company) c,
     (SELECT lower(regexp_replace(md5('sharepoint:site:1'), '^(.{8})(.{4})(.{4})(.{4})(.{12}).*$', '\1-\2-\3-\4-\5')) AS g1,
             lower(regexp_replace(md5('sharepoint:web:1'), '^(.{8})(.{4})(.{4})(.{4})(.{12}).*$', '\1-\2-\3-\4-\5')) AS g2);

INSERT INTO sharepoint.drives
SELECT 'b!' || substr(md5('sharepoint:drive:Documents'), 1, 32), s.id, 'Documents', 'Shared Documents library',
       'documentLibrary', s.webUrl || '/Shared%20Documents', s.createdDateTime
FROM sharepoint.sites s;

-- the root folder
INSERT INTO sharepoint.driveItems
SELECT '01' || upper(substr(md5('sharepoint:folder:/'), 1, 32)), d.id, 'root', 'folder', NULL, NULL,
       d.webUrl, NULL, NULL, NULL, NULL, NULL, NULL,
       '"{' || upper(substr(md5('sharepoint:folder:/'), 1, 32)) || '},1"',
       d.createdDateTime, d.createdDateTime,
       'admin@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       'admin@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       NULL
FROM sharepoint.drives d;

-- folders
INSERT INTO sharepoint.driveItems
WITH docs AS (
    SELECT string_split(trim(folder, '/'), '/') AS segs, created_date
    FROM book.documents
    WHERE store = 'sharepoint' AND trim(folder, '/') <> ''
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
SELECT '01' || upper(substr(md5('sharepoint:folder:' || f.path), 1, 32)),
       dr.id, f.name, 'folder',
       '01' || upper(substr(md5('sharepoint:folder:' || f.parent_path), 1, 32)),
       '/drive/root:' || CASE WHEN f.parent_path = '/' THEN '' ELSE f.parent_path END,
       dr.webUrl || replace(f.path, ' ', '%20'),
       NULL, NULL, NULL, NULL, NULL, NULL,
       '"{' || upper(substr(md5('sharepoint:folder:' || f.path), 1, 32)) || '},1"',
       f.created + INTERVAL 8 HOUR, f.created + INTERVAL 8 HOUR,
       'admin@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       'admin@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       NULL
FROM folders f, sharepoint.drives dr
ORDER BY f.path;

-- files
INSERT INTO sharepoint.driveItems
WITH docs AS (
    SELECT d.*, CASE WHEN trim(d.folder, '/') = '' THEN '/' ELSE '/' || trim(d.folder, '/') END AS path,
           coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com') AS domain
    FROM book.documents d
    WHERE d.store = 'sharepoint'
)
SELECT '01' || upper(substr(md5('sharepoint:file:' || d.document_id), 1, 32)),
       dr.id, d.filename, 'file',
       '01' || upper(substr(md5('sharepoint:folder:' || d.path), 1, 32)),
       '/drive/root:' || CASE WHEN d.path = '/' THEN '' ELSE d.path END,
       dr.webUrl || replace(CASE WHEN d.path = '/' THEN '' ELSE d.path END || '/' || d.filename, ' ', '%20'),
       d.title, NULL, d.mime_type, NULL, NULL, '1.0',
       '"{' || upper(substr(md5('sharepoint:file:' || d.document_id), 1, 32)) || '},1"',
       d.created_date + INTERVAL 9 HOUR, d.created_date + INTERVAL 9 HOUR,
       CASE WHEN d.doc_type IN ('invoice', 'coi', 'lien_waiver') THEN 'ap@'
            WHEN d.doc_type = 'wh347' THEN 'payroll@'
            WHEN d.doc_type IN ('policy', 'workbook') THEN 'controller@'
            ELSE 'pm@' END || d.domain,
       CASE WHEN d.doc_type IN ('invoice', 'coi', 'lien_waiver') THEN 'ap@'
            WHEN d.doc_type = 'wh347' THEN 'payroll@'
            WHEN d.doc_type IN ('policy', 'workbook') THEN 'controller@'
            ELSE 'pm@' END || d.domain,
       NULL
FROM docs d, sharepoint.drives dr
ORDER BY d.document_id;
