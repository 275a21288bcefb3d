-- excel: workbook records from book.documents (store = 'excel'). The seed (cfab.apps.office)
-- then fills each workbook's .xlsx bytes from the renderers and derives excel.worksheets and
-- excel.cells from those bytes. Ids: cfab.apps.docs.common.excel_workbook_id(document_id).

INSERT INTO excel.workbooks
SELECT '01' || upper(substr(md5('excel:workbook:' || d.document_id), 1, 32)),
       d.filename,
       CASE WHEN trim(d.folder, '/') = '' THEN '/' ELSE '/' || trim(d.folder, '/') END,
       d.title,
       NULL, NULL,
       d.created_date + INTERVAL 9 HOUR,
       d.created_date + INTERVAL 9 HOUR,
       'controller@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       'controller@' || coalesce((SELECT min(email_domain) FROM book.company), 'companyA.com'),
       NULL
FROM book.documents d
WHERE d.store = 'excel'
ORDER BY d.document_id;
