import { describeSiteReplay } from '../support/site-replay-suite.ts';

// Bluesky through a real WebSocket: the recorded Jetstream post events, looped with fresh record
// keys, exactly once across dropped connections, bad frames, and refusals
// (kill -9: ingest-replay.test.ts).
describeSiteReplay('bluesky', 'Bluesky', { transport: 'websocket' });
