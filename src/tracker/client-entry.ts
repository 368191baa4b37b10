/**
 * `mockyard/tracker`: the tracker client alone (events batched to a collector), for production
 * bundles: nothing of the engines, msw or the devtools page comes with it.
 */
export { createTrackerClient, type TrackerClient, type TrackerClientOptions, type TrackedEvent, type TrackerStats, type TrackerStorageOptions, type TrackerPersistOptions, type TrackerState } from './client.js';
