import { listAllAccounts } from '../../../shared/db/repositories/account-repository';
import { backfillLookups } from '../../../shared/db/repositories/lookup-backfill';
import { prepareTenantCustomerP12s } from '../../../shared/domain/accounts/customer-p12';
import { requireTenant } from '../../../shared/domain/tenants/tenant-service';
import { parseFlags, type Command } from '../cli-types';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../../shared/db/client';
import { scanItems } from '../../../shared/db/paging';
import { tableName } from '../../../shared/db/table-names';
import { backfillDisabledDevices } from '../../../shared/db/repositories/disabled-device-repository';
import { rebuildFeedDocument } from '../../../shared/db/repositories/feed-document-repository';

export const migrateCommands: Record<string, Command> = {
  /**
   * Once, on a stack that holds data from before the keyed lookups: writes the token item of every user, the
   * host copy of every tenant with a domain, and every account's customer `.p12` under its tenant's password.
   * Safe to run again. → `{"tokens","hosts","accounts"}` (items written / accounts prepared).
   */
  'migrate lookups': async (flags) => {
    parseFlags(flags, {});
    const written = await backfillLookups();
    let accounts = 0;
    for (const tenantId of new Set((await listAllAccounts()).map((a) => a.tenantId))) {
      accounts += await prepareTenantCustomerP12s(tenantId, [(await requireTenant(tenantId)).settings.p12Password]);
    }
    return { ...written, accounts };
  },
  /**
   * Once, on a stack that holds data from before the feed's one-read storage: the owners' copy of every
   * disabled certificate, and the feed copy of every source's published apps (rebuilt where it does not
   * claim to be complete, e.g. after an app import). Safe to run again. → `{"disabled_devices","feeds"}`.
   */
  'migrate feeds': async (flags) => {
    parseFlags(flags, {});
    const disabled = await backfillDisabledDevices();
    let feeds = 0;
    for await (const source of scanItems({ TableName: tableName('sources'), ProjectionExpression: 'source_id' })) {
      const sourceId = String(source.source_id);
      const current = await documentClient().send(new GetCommand({ TableName: tableName('sourceFeeds'), Key: { source_id: sourceId }, ConsistentRead: true, ProjectionExpression: 'complete' }));
      if (current.Item?.complete === true) continue;
      if (await rebuildFeedDocument(sourceId)) feeds++;
    }
    return { disabled_devices: disabled, feeds };
  },
};
