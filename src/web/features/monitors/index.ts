// What other features may use of monitors: the list of the user's monitors (the Alerts page
// filters by one). Everything else in this folder is the monitors feature's own.
export { useListMonitorsQuery } from './monitors-api.ts';
