/**
 * Runtime settings read from the environment on each call, so tests and the local runtime can point the
 * same modules at their own tables without reloading them.
 */
export function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function dynamoEndpoint(): string | undefined {
  return env('DYNAMODB_ENDPOINT');
}

export function awsRegion(): string {
  return env('AWS_REGION') ?? env('AWS_DEFAULT_REGION') ?? 'us-east-1';
}
