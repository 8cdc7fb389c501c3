import type { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableKeys, tables, type KeyAttribute, type TableDefinition, type TableKey } from '../../../shared/db/tables';

const attribute = (a: KeyAttribute): Attribute => ({ name: a.name, type: a.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING });

/**
 * One DynamoDB table per entry of the shared table list (the same list the local runtime creates), on
 * demand with point-in-time recovery. Physical names are left to CloudFormation so several stacks can live
 * in one account; the stack outputs them.
 */
export class DataTables extends Construct {
  readonly byKey: Record<TableKey, Table>;

  constructor(scope: Construct, id: string, props: { removalPolicy: RemovalPolicy }) {
    super(scope, id);
    const byKey = {} as Record<TableKey, Table>;
    for (const key of tableKeys) {
      const def: TableDefinition = tables[key];
      const table = new Table(this, key, {
        partitionKey: attribute(def.partitionKey),
        ...(def.sortKey ? { sortKey: attribute(def.sortKey) } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        ...(def.ttlAttribute ? { timeToLiveAttribute: def.ttlAttribute } : {}),
        ...(def.stream ? { stream: StreamViewType.NEW_IMAGE } : {}),
        removalPolicy: props.removalPolicy,
      });
      for (const index of def.indexes ?? []) {
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
          ...(index.include ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.include] } : {}),
        });
      }
      byKey[key] = table;
    }
    this.byKey = byKey;
  }
}
