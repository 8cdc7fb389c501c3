/**
 * Off AWS nobody collects embedded metric lines, so the local runtime and the operator CLI switch
 * Powertools Metrics off. Imported first: the metrics instance reads this when its module loads.
 */
import { switchMetricsOffUnlessSet } from '../config';

switchMetricsOffUnlessSet();
