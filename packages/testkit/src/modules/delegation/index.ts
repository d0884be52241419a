export { describeDelegationRecords, type DelegationRecordsOnNode } from './delegation-records-contract.js';
export { describeDelegationStoresOnRecords } from './stores-on-records.js';
