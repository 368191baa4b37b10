/**
 * `mockyard/sw`: the former name of `mockyard/browser` (same exports), kept working; it also
 * still exports `createTrackerClient`, whose own entry is now `mockyard/tracker`.
 * @deprecated import from `mockyard/browser` (and the tracker client from `mockyard/tracker`).
 */
export * from '../browser/index.js';
export { createTrackerClient, type TrackerClient, type TrackerClientOptions, type TrackedEvent, type TrackerStats, type TrackerStorageOptions, type TrackerPersistOptions } from '../tracker/client.js';
