/**
 * Every store wired at once, for the processes that reach any rule (the operator CLI, the local runtime, the
 * benches and the soak, the DynamoDB Local tests). A function wires only the stores its code reaches.
 */
import './ledger';
import './plans';
import './protection';
import './slots';
import './subscriptions';
import './transactions';
