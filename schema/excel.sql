-- excel: Excel workbooks (Excel for the web over OneDrive, Microsoft Graph's workbook
-- vocabulary). Each workbook is stored as real .xlsx bytes (content, openpyxl-readable, with
-- live formulas); its worksheets and non-empty cells are kept in step with the bytes on every
-- write, so a state diff shows cell-level changes and grader predicates can address
-- excel.cells(workbook, sheet, cell, value). Seeded from the book's workbooks: the WIP
-- schedule, the subcontract accrual schedule template, the 1099 vendor workbook and the SOV
-- export; agents create their own.

CREATE SCHEMA IF NOT EXISTS excel;

-- Workbook files (GET /me/drive/items/{id}).
CREATE TABLE excel.workbooks (
    id                 VARCHAR PRIMARY KEY,   -- '01' + 32 upper-case hex characters
    name               VARCHAR NOT NULL,      -- 'WIP 2026-01.xlsx'
    path               VARCHAR NOT NULL,      -- folder: '/Close/2026-01'
    description        VARCHAR,               -- 'Work-in-progress schedule, January 2026'
    size               BIGINT,
    sha256             VARCHAR,
    created_at         TIMESTAMP NOT NULL,
    modified_at        TIMESTAMP NOT NULL,
    created_by         VARCHAR NOT NULL,      -- 'controller@companyA.com'
    last_modified_by   VARCHAR NOT NULL,
    content            BLOB                   -- the .xlsx bytes
);

-- Worksheets (GET /workbook/worksheets), in workbook order.
CREATE TABLE excel.worksheets (
    workbook_id        VARCHAR NOT NULL,
    name               VARCHAR NOT NULL,      -- 'WIP'
    position           INTEGER NOT NULL,      -- 0-based
    visibility         VARCHAR NOT NULL,      -- Visible|Hidden|VeryHidden
    PRIMARY KEY (workbook_id, name)
);

-- Every non-empty cell, as stored: a formula cell has formula '=SUM(E6:E36)' and value NULL;
-- a value cell has value as exact text ('14350.5', 'Walsh Electrical', 'true') and its type.
-- computed is what Excel shows (a formula's result, exactly, in Decimal arithmetic), so an
-- artifact is graded by the numbers it shows however the agent arrived at them; editing an
-- input changes that cell's row and the rows of the formulas whose result it changes.
CREATE TABLE excel.cells (
    workbook_id        VARCHAR NOT NULL,
    sheet              VARCHAR NOT NULL,      -- 'WIP'
    cell               VARCHAR NOT NULL,      -- 'F6'
    workbook           VARCHAR NOT NULL,      -- the workbook's name, 'WIP 2026-01.xlsx'
    row_index          INTEGER NOT NULL,      -- 6
    column_index       INTEGER NOT NULL,      -- 6 (F)
    value              VARCHAR,               -- exact text of the stored value; NULL for formulas
    formula            VARCHAR,               -- '=E6+F6' or NULL
    data_type          VARCHAR NOT NULL,      -- n number|s string|b boolean|d date|f formula
    computed           VARCHAR,               -- what the cell shows, as exact text: the stored value,
                                              -- or the formula's result computed exactly ('#DIV/0!'
                                              -- for an error; NULL past the evaluation budget)
    PRIMARY KEY (workbook_id, sheet, cell)
);
