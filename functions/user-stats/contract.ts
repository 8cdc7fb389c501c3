import { statsData, statsRequest } from '../../shared/contracts/stats-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: statsRequest,
  response: statsData,
  alternateContent: { contentType: 'text/csv', description: 'With by=app and format=csv: day,app_id,name,downloads, one line per app, as apps-<source>-<day>.csv. With series and format=csv: a header row (period,start,end,adds,refunds,spend,refunded,agent_adds,sales,cost,margin), then one line per period, CRLF; amounts in cents; sent as an attachment named stats-<user>-<series>-<from>-<to>.csv' },
  notes:
    'The dashboard in one request, each figure from a bounded read whatever the number of devices or entries: no scan. Days and months are UTC. The money figures come from tallies written in the same DynamoDB transaction as the ledger entries they count (ledger check verifies them); a refund counts on the day it happens. With series=day|month: one row per period from one BatchGetItem of the tallies (at most 92 days or 24 months, so one request is one batch of at most 100 keys); format=csv answers the same rows as text/csv (Content-Disposition: attachment). With by=agent: each direct agent’s figures for one period, 100 a page (one Query of the agents, one BatchGetItem of their tallies). With by=app&source_id=S: each app’s downloads for one UTC day (the download gate logs one line per redirect, summed per app and day asynchronously: no call at the gate) and the source’s installs (UDID captures), 99 apps a page; format=csv as day,app_id,name,downloads.',
};
