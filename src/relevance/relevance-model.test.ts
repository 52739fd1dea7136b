import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  DISMISS_WEIGHT,
  emptyModel,
  matchFeatures,
  type RelevanceInput,
  readModel,
  scoreMatch,
  train,
} from './relevance-model.ts';

const input = (overrides: Partial<RelevanceInput> = {}): RelevanceInput => ({
  source: 'reddit',
  kind: 'post',
  title: 'Rust server wipe tonight',
  threadTitle: null,
  snippet: 'Looking for a clan before the monthly wipe on the Rust server.',
  highlights: [[40, 44]],
  titleHighlights: [[0, 4]],
  hitFields: ['title', 'body'],
  author: 'ada',
  community: 'playrust',
  ...overrides,
});

const inputs = fc.record({
  source: fc.constantFrom('reddit', 'hackernews', 'lobsters'),
  kind: fc.constantFrom('post' as const, 'comment' as const),
  title: fc.option(fc.string({ maxLength: 80 })),
  threadTitle: fc.option(fc.string({ maxLength: 40 })),
  snippet: fc.string({ maxLength: 300 }),
  highlights: fc.array(fc.tuple(fc.nat(300), fc.nat(300)), { maxLength: 4 }),
  titleHighlights: fc.array(fc.tuple(fc.nat(80), fc.nat(80)), { maxLength: 2 }),
  hitFields: fc.subarray(['title', 'body', 'url']),
  author: fc.option(fc.string({ maxLength: 12 })),
  community: fc.option(fc.string({ maxLength: 12 })),
});
const ratings = fc.constantFrom('relevant' as const, 'irrelevant' as const);

describe('relevance model', () => {
  test('every score is in [0, 1] with at most three reasons, trained or not', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(inputs, ratings), { maxLength: 12 }), inputs, (rated, x) => {
        const model = emptyModel();
        for (const [match, rating] of rated) train(model, matchFeatures(match), rating);
        const score = scoreMatch(model, x);
        expect(score.relevance).toBeGreaterThanOrEqual(0);
        expect(score.relevance).toBeLessThanOrEqual(1);
        expect(score.reasons.length).toBeLessThanOrEqual(3);
      }),
    );
  });

  test('taking ratings back, in any order, leaves the model as it was before them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(inputs, ratings), { maxLength: 10 }),
        fc.array(fc.tuple(inputs, ratings), { maxLength: 10 }),
        (kept, undone) => {
          const model = emptyModel();
          for (const [match, rating] of kept) train(model, matchFeatures(match), rating);
          const before = JSON.parse(JSON.stringify(model));
          for (const [match, rating] of undone) train(model, matchFeatures(match), rating);
          for (const [match, rating] of [...undone].reverse()) {
            train(model, matchFeatures(match), rating, -1);
          }
          expect(model.rated[0]).toBeCloseTo(before.rated[0], 9);
          expect(model.rated[1]).toBeCloseTo(before.rated[1], 9);
          expect(Object.keys(model.features).sort()).toEqual(Object.keys(before.features).sort());
        },
      ),
    );
  });

  test('a rating moves the score of a like match its way, and the reasons say why', () => {
    const game = input();
    const like = input({ title: 'Rust wipe schedule', snippet: 'Which server wipes first?' });
    const before = scoreMatch(emptyModel(), like).relevance;
    const model = emptyModel();
    train(model, matchFeatures(game), 'irrelevant');
    const after = scoreMatch(model, like);
    expect(after.relevance).toBeLessThan(before);
    expect(after.reasons.length).toBeGreaterThan(0);
    for (const reason of after.reasons) expect(reason).toMatch(/: in 1 you marked not relevant$/);
    train(model, matchFeatures(game), 'irrelevant', -1);
    train(model, matchFeatures(game), 'relevant');
    expect(scoreMatch(model, like).relevance).toBeGreaterThan(before);
  });

  test('a dismissal weighs half a rating', () => {
    const model = emptyModel();
    train(model, matchFeatures(input()), 'irrelevant', DISMISS_WEIGHT);
    expect(model.rated).toEqual([0, 0.5]);
    const strong = emptyModel();
    train(strong, matchFeatures(input()), 'irrelevant');
    const like = input({ title: 'Rust wipe', snippet: 'server' });
    expect(scoreMatch(strong, like).relevance).toBeLessThan(scoreMatch(model, like).relevance);
  });

  test('without ratings: the general signals, a hit in the title above one only in the link', () => {
    const title = scoreMatch(emptyModel(), input());
    const link = scoreMatch(
      emptyModel(),
      input({ hitFields: ['url'], titleHighlights: [], highlights: [] }),
    );
    expect(title.relevance).toBeGreaterThan(link.relevance);
    expect(title.reasons).toContain('the words are in the title');
    expect(link.reasons).toContain('the words are only in the link');
  });

  test('a stored model of another shape reads as empty', () => {
    expect(readModel({ version: 2 })).toEqual(emptyModel());
    expect(readModel(null)).toEqual(emptyModel());
  });
});
