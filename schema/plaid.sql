-- plaid: Plaid, the aggregator linking every bank the company uses (one Item per institution).
-- Native Plaid vocabulary: items, accounts with balances, transactions (positive amount = money
-- OUT of the account, Plaid's sign convention), and Plaid Transfer (initiating one is guarded).

CREATE SCHEMA IF NOT EXISTS plaid;

-- One Item per linked institution login.
CREATE TABLE plaid.items (
    item_id             VARCHAR PRIMARY KEY,
    institution_id      VARCHAR NOT NULL,      -- 'ins_127989' Bank of America, ...
    institution_name    VARCHAR NOT NULL,
    products            VARCHAR NOT NULL,      -- 'auth,balance,transactions,transfer'
    consent_expiration_time TIMESTAMP,
    update_type         VARCHAR NOT NULL,      -- 'background'
    last_successful_update TIMESTAMP NOT NULL
);

-- Accounts with their current balances (Plaid reports current, not history).
CREATE TABLE plaid.accounts (
    account_id          VARCHAR PRIMARY KEY,
    item_id             VARCHAR NOT NULL,
    name                VARCHAR NOT NULL,      -- the nickname: 'Operating'
    official_name       VARCHAR NOT NULL,      -- 'BUSINESS ADVANTAGE CHECKING'
    mask                VARCHAR NOT NULL,      -- last four digits
    type                VARCHAR NOT NULL,      -- 'depository'
    subtype             VARCHAR NOT NULL,      -- 'checking'
    iso_currency_code   VARCHAR NOT NULL,
    balances_current    DECIMAL(18,2) NOT NULL,
    balances_available  DECIMAL(18,2) NOT NULL,
    balances_last_updated_datetime TIMESTAMP NOT NULL
);

-- Posted transactions across every linked account.
CREATE TABLE plaid.transactions (
    transaction_id      VARCHAR PRIMARY KEY,
    account_id          VARCHAR NOT NULL,
    amount              DECIMAL(18,2) NOT NULL,   -- positive: money out; negative: money in
    iso_currency_code   VARCHAR NOT NULL,
    date                DATE NOT NULL,
    authorized_date     DATE,
    name                VARCHAR NOT NULL,
    merchant_name       VARCHAR,
    payment_channel     VARCHAR NOT NULL,      -- 'other' | 'online' | 'in store'
    transaction_code    VARCHAR,               -- 'cheque' | 'direct debit' | 'transfer' | 'bank charge' | ...
    check_number        VARCHAR,
    pending             BOOLEAN NOT NULL,
    personal_finance_category_primary  VARCHAR NOT NULL,
    personal_finance_category_detailed VARCHAR NOT NULL
);

-- Plaid Transfer: transfers created through the API.
CREATE TABLE plaid.transfers (
    transfer_id         VARCHAR PRIMARY KEY,
    authorization_id    VARCHAR NOT NULL,
    account_id          VARCHAR NOT NULL,
    type                VARCHAR NOT NULL,      -- 'debit' | 'credit'
    network             VARCHAR NOT NULL,      -- 'ach' | 'same-day-ach' | 'rtp' | 'wire'
    amount              DECIMAL(18,2) NOT NULL,
    description         VARCHAR NOT NULL,
    legal_name          VARCHAR NOT NULL,      -- the counterparty
    status              VARCHAR NOT NULL,      -- 'pending' | 'posted' | 'settled' | 'cancelled' | 'failed'
    created             TIMESTAMP NOT NULL
);
