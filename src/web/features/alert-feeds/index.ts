// What other features may use of alert feeds: a monitor's feed link (the monitor dialog) and the
// feed of all alerts (the Alerts page).
export { AlertFeedLink, AllAlertsFeedButton } from './alert-feed-link.tsx';
