import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AppSourceStack, type AppSourceStackProps } from './app-stack';
import { stackConfig } from './stack-config';

export interface CreateAppOptions {
  /** Build the function bundles (esbuild, no Docker). Off in unit tests that only read the template. */
  bundling?: boolean;
  outdir?: string;
  context?: Record<string, unknown>;
  routes?: AppSourceStackProps['routes'];
  scheduledJobs?: AppSourceStackProps['scheduledJobs'];
  openApiDocument?: AppSourceStackProps['openApiDocument'];
}

/**
 * The CDK app with the one stack and the cdk-nag AwsSolutions checks. `bin/app.ts` runs it for the CDK CLI;
 * tests build it in-process.
 */
export function createApp(options: CreateAppOptions = {}): { app: App; stack: AppSourceStack } {
  const app = new App({
    ...(options.outdir ? { outdir: options.outdir } : {}),
    context: {
      // `sam local` finds each function's code through these resource metadata entries; the CDK CLI adds
      // them too, but an app built in-process (tests, bundle report) must not depend on the CLI for it.
      'aws:cdk:enable-asset-metadata': true,
      // Construct paths name the functions for `sam local invoke`, the env-vars file and the bundle report.
      'aws:cdk:enable-path-metadata': true,
      // CDK checks the template against CloudFormation's resource schemas on every synth; make a finding
      // stop the synth instead of scrolling past as a warning, so a template that synthesizes also deploys.
      '@aws-cdk/core:validateAgainstDefaultRules': true,
      ...options.context,
      ...(options.bundling === false ? { 'aws:cdk:bundling-stacks': [] } : {}),
    },
  });
  const config = stackConfig(app.node);
  const stack = new AppSourceStack(app, config.stackName, {
    config,
    description: 'App source & device service: REST API, one Lambda per route, DynamoDB',
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.scheduledJobs ? { scheduledJobs: options.scheduledJobs } : {}),
    ...(options.openApiDocument ? { openApiDocument: options.openApiDocument } : {}),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack };
}
