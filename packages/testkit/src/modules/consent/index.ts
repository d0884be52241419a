export { describeConsentDecisions, type DecisionsOnNode } from './consent-decisions-contract.js';
export { describeConsentStoresOnRecords } from './stores-on-records.js';
