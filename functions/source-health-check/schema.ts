/** POST …/health/check names its source in the path and takes nothing else. */
export { parseSourceRequest as parseRequest } from '../../shared/validation/echoed-source';
