// Keep test output readable: the Powertools logger stays quiet and Powertools Metrics writes no embedded
// metric lines unless a test run asks for them.
// Tests run every server on loopback: user-given URLs may point there (the fetch tests turn the rule on themselves).
process.env.FETCH_ALLOW_PRIVATE ??= '1';
// Fixture apps point at download hosts that do not exist: publishing reads no IPA unless a test turns it on.
process.env.IPA_INSPECTION ??= 'off';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
// Tests change tenants and look at the next request at once; the tenant cache has its own tests.
process.env.TENANT_CACHE_SECONDS ??= '0';
// Likewise the feed's and gate's view of an owner's subscription (suspension).
process.env.OWNER_CACHE_SECONDS ??= '0';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
