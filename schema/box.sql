-- box: Box (box.com), the company's content cloud. Folders and files in Box's own vocabulary
-- (ids are digit strings, the root folder is "0" / "All Files", files carry sha1, a version
-- number and the id of their current file version). Reality 5, "the PDF is the system of
-- record": vendor invoices, COIs, lien waivers, owner pay applications and change-event
-- backup live here as real PDF bytes (content), rendered from the book at build; the only
-- way to their numbers is to read them (box.ocr_pdf). Agent uploads (reports, crosswalks,
-- memos) are stored the same way so the grader can address them. A file's bytes are never
-- overwritten in place: a new version first copies the old bytes into file_versions.

CREATE SCHEMA IF NOT EXISTS box;

-- Folders (GET /folders/:id). path_collection is the path of the PARENT folder, flattened
-- from Box's path_collection entries: '/' for a top-level folder, NULL for the root.
CREATE TABLE box.folders (
    id                 VARCHAR PRIMARY KEY,   -- '0' (root) or a 12-digit id '412093385771'
    name               VARCHAR NOT NULL,      -- 'Invoices' ('All Files' for the root)
    parent_id          VARCHAR,               -- NULL for the root
    path_collection    VARCHAR,               -- '/AP' for '/AP/Invoices'; '/' for '/AP'
    description        VARCHAR,
    created_at         TIMESTAMP NOT NULL,
    modified_at        TIMESTAMP NOT NULL,
    created_by_login   VARCHAR NOT NULL,      -- 'ap@companyA.com'
    item_status        VARCHAR NOT NULL       -- active|trashed
);

-- Files (GET /files/:id) with their current bytes. path_collection is the folder's path.
CREATE TABLE box.files (
    id                 VARCHAR PRIMARY KEY,   -- 12-digit id '462638810532'
    name               VARCHAR NOT NULL,      -- 'V1001_JSM-88421.pdf'
    parent_id          VARCHAR NOT NULL,      -- box.folders.id
    path_collection    VARCHAR NOT NULL,      -- '/AP/Invoices/2026-01'
    extension          VARCHAR NOT NULL,      -- 'pdf'
    description        VARCHAR,               -- 'Invoice JSM-88421 - J. S. Mitchell Mechanical, Inc.'
    size               BIGINT,                -- bytes
    sha1               VARCHAR,               -- Box's content hash
    sha256             VARCHAR,               -- also kept, to match attachments and uploads
    version_number     INTEGER NOT NULL,      -- 1 for a first upload
    file_version_id    VARCHAR NOT NULL,      -- id of the current version
    content_created_at TIMESTAMP NOT NULL,
    created_at         TIMESTAMP NOT NULL,
    modified_at        TIMESTAMP NOT NULL,
    created_by_login   VARCHAR NOT NULL,
    modified_by_login  VARCHAR NOT NULL,
    item_status        VARCHAR NOT NULL,      -- active|trashed
    content            BLOB                   -- the file's bytes (current version)
);

-- Previous versions of a file (GET /files/:id/versions): written when a new version is
-- uploaded; immutable.
CREATE TABLE box.file_versions (
    id                 VARCHAR PRIMARY KEY,   -- the file_version_id the file had
    file_id            VARCHAR NOT NULL,
    version_number     INTEGER NOT NULL,
    name               VARCHAR NOT NULL,
    size               BIGINT NOT NULL,
    sha1               VARCHAR NOT NULL,
    sha256             VARCHAR NOT NULL,
    created_at         TIMESTAMP NOT NULL,    -- when this version was uploaded
    modified_by_login  VARCHAR NOT NULL,
    trashed_at         TIMESTAMP,
    content            BLOB NOT NULL
);
