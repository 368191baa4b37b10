/** The shared Vfs contract (test/vfs/contract.ts) on indexedDbFs over fake-indexeddb. */
import 'fake-indexeddb/auto';
import { freshIndexedDb } from '../helpers/indexeddb-contract-driver.js';
import { vfsContract } from './contract.js';

vfsContract('indexeddb (fake-indexeddb)', freshIndexedDb);
