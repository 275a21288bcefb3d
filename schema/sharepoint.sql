-- sharepoint: SharePoint Online document libraries in Microsoft Graph's vocabulary (sites,
-- drives = document libraries, driveItems = folders and files with webUrls and hashes,
-- driveItemVersions). Holds the company's controlled documents: subcontract agreements,
-- WH-347 certified payrolls and the policies tasks cite (markdown, and PDF where the book
-- has one). The bytes are rendered from the book at build (content); agent uploads are
-- stored the same way. A file's bytes are never overwritten in place: a new version first
-- copies the old bytes into driveItemVersions.

CREATE SCHEMA IF NOT EXISTS sharepoint;

-- Sites (GET /sites/{id}).
CREATE TABLE sharepoint.sites (
    id                    VARCHAR PRIMARY KEY,   -- 'companya.sharepoint.com,<guid>,<guid>'
    name                  VARCHAR NOT NULL,      -- 'CompanyA'
    displayName           VARCHAR NOT NULL,      -- 'Company A Construction, Inc.'
    description           VARCHAR,
    webUrl                VARCHAR NOT NULL,      -- 'https://companya.sharepoint.com/sites/CompanyA'
    createdDateTime       TIMESTAMP NOT NULL
);

-- Drives: the site's document libraries (GET /sites/{id}/drives).
CREATE TABLE sharepoint.drives (
    id                    VARCHAR PRIMARY KEY,   -- 'b!' + 32 characters
    site_id               VARCHAR NOT NULL,
    name                  VARCHAR NOT NULL,      -- 'Documents'
    description           VARCHAR,
    driveType             VARCHAR NOT NULL,      -- 'documentLibrary'
    webUrl                VARCHAR NOT NULL,      -- '<site webUrl>/Shared Documents'
    createdDateTime       TIMESTAMP NOT NULL
);

-- driveItems: folders (item_type 'folder') and files (item_type 'file'). parentReference_path
-- is Graph's '/drive/root:' + the parent folder's path ('/drive/root:/Policies').
CREATE TABLE sharepoint.driveItems (
    id                    VARCHAR PRIMARY KEY,   -- '01' + 32 upper-case hex characters
    drive_id              VARCHAR NOT NULL,
    name                  VARCHAR NOT NULL,      -- 'SC-1042-0_Subcontract_Agreement.pdf' ('root' for the root)
    item_type             VARCHAR NOT NULL,      -- folder|file
    parentReference_id    VARCHAR,               -- NULL for the root
    parentReference_path  VARCHAR,               -- '/drive/root:/Contracts/Subcontracts'; NULL for the root
    webUrl                VARCHAR NOT NULL,
    description           VARCHAR,               -- the document title
    size                  BIGINT,                -- bytes (files)
    file_mimeType         VARCHAR,               -- files only: 'application/pdf'
    file_sha1Hash         VARCHAR,               -- files only (upper-case hex, as Graph reports it)
    file_sha256Hash       VARCHAR,               -- files only (upper-case hex)
    version_label         VARCHAR,               -- files only: '1.0', '2.0', ...
    eTag                  VARCHAR NOT NULL,      -- '"{<id>},<version>"'
    createdDateTime       TIMESTAMP NOT NULL,
    lastModifiedDateTime  TIMESTAMP NOT NULL,
    createdBy_email       VARCHAR NOT NULL,
    lastModifiedBy_email  VARCHAR NOT NULL,
    content               BLOB                   -- files only: the current bytes
);

-- driveItemVersions: previous versions of a file (GET /drives/{d}/items/{id}/versions);
-- written when a new version is uploaded; immutable.
CREATE TABLE sharepoint.driveItemVersions (
    item_id               VARCHAR NOT NULL,
    id                    VARCHAR NOT NULL,      -- the version label the file had: '1.0'
    size                  BIGINT NOT NULL,
    file_sha256Hash       VARCHAR NOT NULL,
    lastModifiedDateTime  TIMESTAMP NOT NULL,
    lastModifiedBy_email  VARCHAR NOT NULL,
    content               BLOB NOT NULL,
    PRIMARY KEY (item_id, id)
);
