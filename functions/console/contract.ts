import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  raw: { status: 200, contentType: 'text/html', description: "The reseller console's page; below /console/ its content-hashed scripts and styles" },
  notes:
    'A web app, not an API: open /console in a browser. It signs in as a person and calls the routes of this document. The page is answered with Cache-Control no-cache, the files under /console/assets/ are immutable for a year; a path that names no file answers 404.',
};
