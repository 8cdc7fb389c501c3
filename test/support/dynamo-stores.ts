// A DynamoDB Local test calls the domain directly as well as through the API: its stores are the repositories,
// wired as every function wires them.
import '../../shared/stores/all';
