-- outlook: Outlook / Exchange Online shared mailboxes in Microsoft Graph's vocabulary
-- (mailboxes, mailFolders, messages, attachments). Seeded from book.emails: the AP and PM
-- mailboxes with realistic threads (a vendor invoice emailed with its PDF attached, an owner
-- asking about a pay application, a COI renewal, the bank's positive-pay notice, ...).
-- Attachments carry the same bytes as the document's file in Box / SharePoint / Excel and
-- that file's id (linked_app, linked_file_id). Agents search, read, OCR attachments and
-- draft; sending is guarded (recorded for a human, never executed) and sent or received
-- messages cannot change.

CREATE SCHEMA IF NOT EXISTS outlook;

-- Mailboxes the agent can open (the user's shared mailboxes).
CREATE TABLE outlook.mailboxes (
    id                    VARCHAR PRIMARY KEY,   -- 'ap@companyA.com'
    displayName           VARCHAR NOT NULL,      -- 'Accounts Payable'
    mailboxType           VARCHAR NOT NULL       -- shared|user
);

-- mailFolders (GET /users/{mailbox}/mailFolders): Inbox, Sent Items, Drafts.
CREATE TABLE outlook.mailFolders (
    id                    VARCHAR PRIMARY KEY,   -- 'AQMk' + 32 hex characters
    mailbox               VARCHAR NOT NULL,
    displayName           VARCHAR NOT NULL,      -- 'Inbox' | 'Sent Items' | 'Drafts'
    wellKnownName         VARCHAR NOT NULL,      -- 'inbox' | 'sentitems' | 'drafts'
    parentFolderId        VARCHAR                -- NULL (top level)
);

-- messages (GET /users/{mailbox}/messages/{id}). Recipient lists are comma separated.
CREATE TABLE outlook.messages (
    id                    VARCHAR PRIMARY KEY,   -- 'AAMk' + 32 hex characters
    mailbox               VARCHAR NOT NULL,
    parentFolderId        VARCHAR NOT NULL,
    conversationId        VARCHAR NOT NULL,      -- the thread: 'AAQk' + 32 hex characters
    internetMessageId     VARCHAR,
    inReplyToId           VARCHAR,               -- the message this one replies to (drafts made as replies)
    subject               VARCHAR NOT NULL,
    body                  VARCHAR NOT NULL,      -- plain text
    bodyPreview           VARCHAR NOT NULL,
    from_address          VARCHAR NOT NULL,
    toRecipients          VARCHAR NOT NULL,
    ccRecipients          VARCHAR,
    bccRecipients         VARCHAR,
    importance            VARCHAR NOT NULL,      -- low|normal|high
    sentDateTime          TIMESTAMP,             -- NULL for drafts
    receivedDateTime      TIMESTAMP,             -- NULL for drafts
    createdDateTime       TIMESTAMP NOT NULL,
    lastModifiedDateTime  TIMESTAMP NOT NULL,
    isRead                BOOLEAN NOT NULL,
    isDraft               BOOLEAN NOT NULL,
    hasAttachments        BOOLEAN NOT NULL
);

-- attachments (fileAttachment): the bytes, plus where the same document lives.
CREATE TABLE outlook.attachments (
    id                    VARCHAR PRIMARY KEY,   -- 'AAMkAt' + 32 hex characters
    message_id            VARCHAR NOT NULL,
    name                  VARCHAR NOT NULL,      -- 'V1001_JSM-88421.pdf'
    contentType           VARCHAR NOT NULL,      -- 'application/pdf'
    size                  BIGINT,
    sha256                VARCHAR,
    isInline              BOOLEAN NOT NULL,
    linked_app            VARCHAR,               -- 'box' | 'sharepoint' | 'excel': where the file is stored
    linked_file_id        VARCHAR,               -- that app's file id ('462638810532')
    contentBytes          BLOB
);
