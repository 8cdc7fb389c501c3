// Keep test output readable: the Powertools logger stays quiet unless a test run asks for it.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
