// What other features may use of the delivery history: a monitor's webhook calls (the monitor
// dialog) and the user's emails (Settings).
export { EmailHistory, WebhookCalls } from './delivery-history.tsx';
