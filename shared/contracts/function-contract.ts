import type { $ZodType } from 'zod/v4/core';
import type { ErrorKind } from '../domain/errors';

/** What a function declares about its own contract. */
export interface FunctionContract {
  /** The parameters, accepted in the query string or (for methods with a body) the body alike. */
  request?: $ZodType;
  /** The success answer's `data` (or, for raw answers, the body). */
  response?: $ZodType;
  /** A raw success answer that is not JSON, e.g. `{ 'image/png': …}` or a redirect (`302`). */
  raw?: { status: number; contentType?: string; description: string };
  /** Notes a caller needs beyond the route table (e.g. which parameters are required together). */
  notes?: string;
  /** The success answer in another form a parameter asks for (e.g. `text/csv` with `format=csv`): content type and what it holds. */
  alternateContent?: { contentType: string; description: string };
  /** Extra answers the function gives besides the error envelope (e.g. 304 Not Modified); a 2xx one carries the success envelope. */
  extraStatuses?: Record<string, string>;
  /**
   * For a route that serves several operations (its table entry's `operations`): the success `data` of each
   * operation that answers an envelope rather than the route's own `response` (e.g. the feed's unlock).
   */
  operationResponses?: Record<string, $ZodType>;
  /** Error kinds the function answers beyond those its table entry implies (a public route that checks a session itself). */
  errors?: readonly ErrorKind[];
  /** A public route whose writes a console session makes (its own check): they name the X-CSRF-Token header. */
  sessionWrites?: true;
}
