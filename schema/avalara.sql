-- avalara: Avalara AvaTax (sales and use tax) with Avalara Returns.
-- The company, its locations (office and job sites), the jurisdiction rates that apply there,
-- committed use-tax transactions (materials purchases shipped to job sites) and the periodic
-- sales/use tax returns. Filing a return is an e-file (guarded).

CREATE SCHEMA IF NOT EXISTS avalara;

CREATE TABLE avalara.companies (
    company_code          VARCHAR PRIMARY KEY,      -- 'COMPANYA'
    company_name          VARCHAR NOT NULL,
    tax_id                VARCHAR NOT NULL,
    default_country       VARCHAR NOT NULL,         -- 'US'
    is_active             BOOLEAN NOT NULL
);

CREATE TABLE avalara.locations (
    location_code         VARCHAR PRIMARY KEY,      -- the job number, or 'HQ'
    company_code          VARCHAR NOT NULL,
    description           VARCHAR NOT NULL,
    address_type          VARCHAR NOT NULL,         -- Headquarters | JobSite
    line1                 VARCHAR NOT NULL,
    city                  VARCHAR NOT NULL,
    county                VARCHAR,
    region                VARCHAR NOT NULL,         -- state
    country               VARCHAR NOT NULL
);

-- Jurisdiction rates (state, county, city) in force for the company's locations.
CREATE TABLE avalara.jurisdiction_rates (
    jurisdiction_code     VARCHAR PRIMARY KEY,      -- 'IL', 'IL-CTY-COOK', 'IL-CIT-CHICAGO'
    jurisdiction_type     VARCHAR NOT NULL,         -- STA | CTY | CIT
    jurisdiction_name     VARCHAR NOT NULL,
    region                VARCHAR NOT NULL,
    county                VARCHAR,
    city                  VARCHAR,
    tax_type              VARCHAR NOT NULL,         -- 'Sales and Use'
    rate                  DECIMAL(9,6) NOT NULL,    -- 0.062500
    effective_date        DATE NOT NULL
);

-- Committed use-tax transactions (purchase invoices for materials delivered to a location).
CREATE TABLE avalara.transactions (
    transaction_code      VARCHAR PRIMARY KEY,      -- 'PI-<vendor>-<invoice number>'
    company_code          VARCHAR NOT NULL,
    doc_type              VARCHAR NOT NULL,         -- PurchaseInvoice
    doc_date              DATE NOT NULL,
    reporting_period      VARCHAR NOT NULL,         -- 'YYYY-MM'
    vendor_code           VARCHAR NOT NULL,
    vendor_invoice_number VARCHAR NOT NULL,
    location_code         VARCHAR NOT NULL,
    region                VARCHAR NOT NULL,
    total_amount          DECIMAL(18,2) NOT NULL,
    total_taxable         DECIMAL(18,2) NOT NULL,
    total_tax             DECIMAL(18,2) NOT NULL,   -- use tax accrued at the location's combined rate
    status                VARCHAR NOT NULL          -- Committed | Saved
);

-- Sales / use tax returns per filing period and state.
CREATE TABLE avalara.filing_returns (
    return_id             VARCHAR PRIMARY KEY,      -- hashed from (company, period, region)
    company_code          VARCHAR NOT NULL,
    filing_period         VARCHAR NOT NULL,         -- 'YYYY-MM'
    region                VARCHAR NOT NULL,
    form_name             VARCHAR NOT NULL,
    transaction_count     INTEGER NOT NULL,
    total_taxable         DECIMAL(18,2) NOT NULL,
    total_tax_due         DECIMAL(18,2) NOT NULL,
    due_date              DATE NOT NULL,
    status                VARCHAR NOT NULL,         -- Draft | Approved | Filed
    filed_date            DATE,
    created_at            TIMESTAMP NOT NULL
);

-- Exemption certificates on file (given to suppliers for tax-exempt projects): a purchase from
-- the vendor delivered to the location, dated inside the certificate's term, is exempt.
CREATE TABLE avalara.exemption_certificates (
    certificate_id        VARCHAR PRIMARY KEY,      -- 'CERT-<hash>'
    company_code          VARCHAR NOT NULL,
    exposure_zone         VARCHAR NOT NULL,         -- state
    vendor_code           VARCHAR NOT NULL,         -- master vendor id
    vendor_name           VARCHAR NOT NULL,
    location_code         VARCHAR NOT NULL,         -- the job
    exempt_reason         VARCHAR NOT NULL,
    exemption_number      VARCHAR NOT NULL,
    signed_date           DATE NOT NULL,
    expiration_date       DATE NOT NULL,
    status                VARCHAR NOT NULL          -- Valid | Expired (at the clock)
);

-- The lines of a use-tax return drafted from reviewed purchases: one per location.
CREATE TABLE avalara.filing_return_lines (
    return_id             VARCHAR NOT NULL,
    line_no               INTEGER NOT NULL,
    location_code         VARCHAR NOT NULL,
    description           VARCHAR,
    taxable_amount        DECIMAL(18,2) NOT NULL,
    tax_rate              DECIMAL(9,6) NOT NULL,    -- the location's combined rate
    tax_amount            DECIMAL(18,2) NOT NULL,   -- taxable x rate, to the cent
    PRIMARY KEY (return_id, line_no)
);
