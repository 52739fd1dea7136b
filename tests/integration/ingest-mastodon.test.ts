import { describeSiteReplay } from '../support/site-replay-suite.ts';

// Mastodon through the real HTTP path: the recorded statuses of 2016, 2017 and 2022, looped
// with fresh ids, exactly once across faults of every kind (kill -9:
// ingest-replay.test.ts).
describeSiteReplay('mastodon', 'Mastodon');
