import { readFileSync } from 'node:fs';

/** CPU milliseconds used so far by this Node process and, when its pid is known, by DynamoDB Local's JVM. */
export interface CpuReading {
  node: number;
  dynamo?: number;
}

/** Linux reports a process's CPU time in clock ticks of 10 ms (`/proc/<pid>/stat`, fields 14 and 15). */
const TICK_MS = 10;

export function readCpu(dynamoPid: number | undefined): CpuReading {
  const own = process.cpuUsage();
  const node = (own.user + own.system) / 1000;
  if (dynamoPid === undefined) return { node };
  try {
    // The command name in parentheses may hold spaces: the fields are counted after its closing parenthesis.
    const fields = readFileSync(`/proc/${dynamoPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { node, dynamo: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return { node };
  }
}

/** CPU milliseconds per operation between two readings. */
export function cpuPerOperation(before: CpuReading, after: CpuReading, operations: number): CpuReading {
  return {
    node: (after.node - before.node) / operations,
    ...(before.dynamo !== undefined && after.dynamo !== undefined ? { dynamo: (after.dynamo - before.dynamo) / operations } : {}),
  };
}

/** The mean of two per-operation readings (the raw runs before and after a round). */
export function meanCpu(a: CpuReading, b: CpuReading): CpuReading {
  return {
    node: (a.node + b.node) / 2,
    ...(a.dynamo !== undefined && b.dynamo !== undefined ? { dynamo: (a.dynamo + b.dynamo) / 2 } : {}),
  };
}
