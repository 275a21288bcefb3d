-- outlook: mailboxes, folders and messages from book.emails; attachment records from each
-- email's attachment_document_ids joined to book.documents. The seed (cfab.apps.office) then
-- fills every attachment's bytes from the document renderers: the same bytes the document's
-- Box / SharePoint / Excel file has (linked_file_id is that file's id). A received message
-- is unread when it arrived in the two days before the clock.

INSERT INTO outlook.mailboxes
SELECT mailbox,
       CASE split_part(mailbox, '@', 1) WHEN 'ap' THEN 'Accounts Payable' WHEN 'pm' THEN 'Project Management'
            WHEN 'ar' THEN 'Accounts Receivable' WHEN 'payroll' THEN 'Payroll' ELSE mailbox END,
       'shared'
FROM (SELECT DISTINCT mailbox FROM book.emails)
ORDER BY mailbox;

INSERT INTO outlook.mailFolders
SELECT 'AQMk' || substr(md5('outlook:folder:' || m.id || ':' || f.wk), 1, 32), m.id, f.display, f.wk, NULL
FROM outlook.mailboxes m,
     (VALUES ('inbox', 'Inbox'), ('sentitems', 'Sent Items'), ('drafts', 'Drafts')) f(wk, display)
ORDER BY m.id, f.wk;

INSERT INTO outlook.messages
WITH clock AS (SELECT coalesce((SELECT CAST(min(value) AS DATE) FROM cfab_internal.meta WHERE key = 'clock'),
                               DATE '2026-01-31') AS d)
SELECT 'AAMk' || substr(md5('outlook:message:' || e.message_id), 1, 32),
       e.mailbox,
       'AQMk' || substr(md5('outlook:folder:' || e.mailbox || ':' ||
                            CASE e.folder WHEN 'Sent' THEN 'sentitems' WHEN 'Drafts' THEN 'drafts' ELSE 'inbox' END), 1, 32),
       'AAQk' || substr(md5('outlook:thread:' || e.thread_id), 1, 32),
       '<' || e.message_id || '.' || e.thread_id || '@' || split_part(e.from_addr, '@', 2) || '>',
       NULL,
       e.subject,
       e.body,
       left(trim(regexp_replace(e.body, '\s+', ' ', 'g')), 255),
       e.from_addr,
       e.to_addrs,
       e.cc_addrs,
       NULL,
       'normal',
       CASE WHEN e.folder = 'Drafts' THEN NULL ELSE e.sent_at END,
       CASE WHEN e.folder = 'Drafts' THEN NULL ELSE e.sent_at END,
       e.sent_at,
       e.sent_at,
       e.folder <> 'Inbox' OR e.sent_at < (SELECT d FROM clock) - INTERVAL 2 DAY,
       e.folder = 'Drafts',
       coalesce(trim(e.attachment_document_ids), '') <> ''
FROM book.emails e
ORDER BY e.message_id;

INSERT INTO outlook.attachments
WITH a AS (
    SELECT e.message_id,
           trim(unnest(string_split(e.attachment_document_ids, ','))) AS document_id,
           generate_subscripts(string_split(e.attachment_document_ids, ','), 1) AS n
    FROM book.emails e
    WHERE coalesce(trim(e.attachment_document_ids), '') <> ''
)
SELECT 'AAMkAt' || substr(md5('outlook:attachment:' || a.message_id || ':' || a.n), 1, 32),
       'AAMk' || substr(md5('outlook:message:' || a.message_id), 1, 32),
       d.filename,
       d.mime_type,
       NULL, NULL,
       false,
       d.store,
       CASE d.store
           WHEN 'box' THEN (100000000000 + md5_number('box:file:' || d.document_id) % 900000000000)::VARCHAR
           WHEN 'sharepoint' THEN '01' || upper(substr(md5('sharepoint:file:' || d.document_id), 1, 32))
           WHEN 'excel' THEN '01' || upper(substr(md5('excel:workbook:' || d.document_id), 1, 32))
       END,
       NULL
FROM a
JOIN book.documents d ON d.document_id = a.document_id
ORDER BY a.message_id, a.n;
