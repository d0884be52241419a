export { FakeCollection, type RecordedCall } from './fake-collection.js';
export { FakeDatabase } from './fake-database.js';
