// The intents of an item, by rules and word lists of our own (issue 24). Precision over recall:
// each rule fires on wording that says the intent outright ("Show HN:", "is hiring", "any
// recommendations for"), never on a lone common word, because a wrong tag is worse than none
// (docs/decisions/0035-item-signals.md). bench/signals-eval.ts measures them against the
// hand-labelled items of bench/signals-labels/.

import { INTENTS, type Intent } from '../shared/signals.ts';

/** The part of an item the rules read. */
export type IntentInput = {
  readonly title: string | null;
  readonly body: string;
  readonly kind: 'post' | 'comment';
  /** A link post's link: its title is the article's headline, not the poster's question. */
  readonly url?: string | null;
};

/** How much of a body the rules read: intents are said early; the rest costs time for nothing. */
const BODY_CHARS = 1500;

const WH = `(?:how|what|why|where|when|which|who|whom|whose|is|are|was|were|can|could|should|would|will|does|do|did|has|have|anyone|any ?one|anybody)`;

/** A sentence that asks: it opens with a question word and ends with "?". */
const ASKING_SENTENCE = new RegExp(String.raw`(?:^|[.!?\n]\s*)${WH}\b[^.!?\n]{2,200}\?`, 'iu');
const ASK_PREFIX =
  /^\s*(?:ask (?:hn|lobsters|reddit|r\/\w+)\s*:|\[?(?:question|help)\]?\s*[:\]-])/iu;

const RECOMMENDATION: readonly RegExp[] = [
  /\b(?:any|some|your) (?:good )?(?:recommendations?|suggestions?)\b[^.!\n]{0,80}\?/iu,
  /\b(?:can|could) (?:any ?one|anybody|you|someone|somebody) (?:please )?(?:recommend|suggest)\b/iu,
  /\b(?:looking for|searching for|need|in search of) (?:a |an |some )?(?:good |decent |simple |free |better |lightweight |open[- ]source )*(?:tool|library|lib|app|service|framework|alternative|plugin|extension|editor|package|crate|saas|software|platform|solution)s?\b/iu,
  /\bwhat(?:'s| is| are| do you| would you)? (?:the )?(?:best|recommended|go-to|your favou?rite) (?:\w+ ){0,3}(?:tool|library|lib|app|service|framework|editor|package|crate|software|platform|way to)\b[^.!\n]{0,80}\?/iu,
  /\b(?:which|what) (?:\w+ ){0,2}(?:tool|library|lib|app|service|framework|editor|package|crate|software|platform) (?:should|would|do|can) (?:i|we|you)\b/iu,
  /\bis there (?:a|an|any) (?:good |decent |simple |free |open[- ]source )*(?:tool|library|lib|app|service|framework|plugin|extension|package|crate|software|way)\b[^.!\n]{0,120}\?/iu,
  /\brecommend(?:ations?)? (?:for|on) (?:a|an|good)\b[^.!\n]{0,80}\?/iu,
  /\bwhat (?:are )?some (?:good |great |nice |decent )?\w+(?: \w+)? (?:for|that|to|i|you)\b[^.!\n]{0,80}\?/iu,
  /\b(?:what|which) (?:\w+ ){0,3}(?:should|could|can|would) (?:i|we) (?:watch|read|use|buy|get|choose|pick|play|learn|try|install)\b/iu,
  /^\s*(?:\[\w+\]\s*)?what to (?:watch|read|use|buy|play|learn|try|install)\b/iu,
];

const COMPARISON: readonly RegExp[] = [
  // "X vs Y" in prose is as often a rhetorical figure: only in a question or a self-post's title.
  /\w\s+(?:vs\.?|versus)\s+\w[^.!?\n]{0,120}\?/iu,
  /\balternatives? (?:to|for)\b/iu,
  /\b(?:switch|switched|switching|migrate|migrated|migrating|moved|moving) (?:over )?from \S+(?: \S+)? to\b/iu,
  /\b(?:comparison (?:of|between)|how does \S+(?: \S+)? compare)\b/iu,
  /\b\w+ or \w+(?: \w+)?,? which (?:one )?is (?:better|faster|best)\b/iu,
];

const COMPLAINT: readonly RegExp[] = [
  /(?<!\bif (?:it|they|\w+) (?:do |does |did )?)\b(?:doesn'?t|does not|don'?t|didn'?t|won'?t|isn'?t|is not|stopped|not) work(?:ing|s)?\b(?! (?:in|at|for|on|with|as|hard|there|here|out)\b)/iu,
  /\b(?:is|are|was|went|goes|been) (?:down|broken)\b/iu,
  /\b(?:outage|downtime|data loss|lost all my)\b/iu,
  /\b(?:keeps?|kept) (?:crashing|freezing|failing|breaking|logging me out)\b/iu,
  /\b(?:crashes|crashed|crashing) (?:every|when|on|after|constantly|again)\b/iu,
  /\b(?:so|very|really|incredibly|extremely) (?:frustrating|annoying|disappointing|disappointed|buggy|slow)\b/iu,
  /\b(?:frustrated|fed up|sick of|tired of|unusable|a joke|ripped off|rip-?off|scam|worst (?:\w+ )?(?:ever|experience|service|support|update))\b/iu,
  /\b(?:this|it|that) (?:sucks|is garbage|is terrible|is awful|is broken)\b/iu,
  /\b(?:is|are|was) (?:so|really|very|just) (?:bad|broken|slow|buggy)\b/iu,
  /\ba (?:real|major|huge) (?:blocker|pain|letdown)\b/iu,
];

const PRAISE: readonly RegExp[] = [
  /\b(?:i|we) (?:really |absolutely |just )?(?:love|adore) (?:this|it|the|using|how|that|your)\b/iu,
  /\b(?:thanks?|thank you)(?: so much| a lot| very much)? for\b|\b(?:kudos|props|hats off|shout-?out) to\b/iu,
  /\b(?:great|awesome|amazing|fantastic|excellent|brilliant|wonderful|impressive|incredible|outstanding) (?:job|work|post|write-?up|project|tool|app|library|article|read|stuff|idea)\b/iu,
  /\b(?:well done|nicely done|good job|nice work|nice job|game[- ]changer|life[- ]?saver)\b/iu,
  /\b(?:i|we) (?:really |just )?(?:like|enjoy|enjoyed) (?:this|the|your|using|how)\b/iu,
  /\b(?:that'?s|what) an? (?:good|great|brilliant|excellent) idea\b/iu,
  /\b(?:this|it|that) (?:is|was|looks) (?:so |really |just |absolutely )?(?:great|awesome|amazing|fantastic|excellent|brilliant|wonderful|beautiful|impressive|incredible)\b/iu,
];

const HIRING: readonly RegExp[] = [
  /\b(?:is|are|we'?re|we are|now|currently|be) ["'“]?(?:\w+ly )?hiring\b/iu,
  /\bis looking for (?:a|an) (?:\w+ ){0,3}(?:engineer|developer|designer|programmer)\b/iu,
  /^\s*\[?hiring\]?\s*[:\]-]/iu,
  /\bwho is hiring\b|\bwho wants to be hired\b/iu,
  /\b(?:join our team|looking to hire|we'?re looking for (?:a|an) (?:senior |junior |full[- ]stack |backend |frontend |lead )*(?:engineer|developer|designer))\b/iu,
  /\b(?:job|position|role)s? (?:opening|available)\b|\bopen (?:positions|roles)\b/iu,
  /\b(?:apply|applications?) (?:here|now|at|via)\b[^.\n]{0,60}(?:https?:|@|jobs|careers)/iu,
];

const LAUNCH: readonly RegExp[] = [
  /^\s*(?:show|launch) (?:hn|lobsters|reddit)\s*:/iu,
  /\b(?:we|i) (?:just |finally |recently )?(?:released|launched|shipped|open[- ]sourced)\b/iu,
  /\b(?:we'?re|we are|i'?m|i am) (?:excited|happy|thrilled|proud) to (?:announce|launch|release|share|introduce)\b/iu,
  /^\s*(?:introducing|announcing)\b/iu,
  /\b(?:is|are) (?:now )?(?:out|live|available)(?: now)?(?: on| for| in|!|$)/iu,
  /\b(?:v?\d+\.\d+(?:\.\d+)?|version \d+) (?:is )?(?:released|is out|released!)\b|\breleased?:? v?\d+\.\d+/iu,
  /^[\w.-]+(?: [\w.-]+)? v?\d+\.\d+(?:\.\d+)?(?:$|:| released| is out)/iu,
  /\b(?:new release|now supports)\b/iu,
  /\b(?:i|we) (?:made|built|created|wrote) (?:a|an|this|my (?:first|own))\b[^.!?\n]{0,80}(?:tool|app|library|site|game|extension|plugin|service|cli|bot)\b/iu,
];

const CURLY_APOSTROPHES = /[\u2018\u2019]/gu;

const VERSUS_TITLE = /\w\s+(?:vs\.?|versus)\s+\w/iu;

const RULES: Readonly<Record<Exclude<Intent, 'question'>, readonly RegExp[]>> = {
  recommendation: RECOMMENDATION,
  comparison: COMPARISON,
  complaint: COMPLAINT,
  praise: PRAISE,
  hiring: HIRING,
  launch: LAUNCH,
};

/** A short reply that ends with a question mark asks it, whatever its first word. */
const SHORT_QUESTION = /^[^.!?\n]{3,120}\?\s*$/u;

function isQuestion(input: IntentInput, title: string, body: string): boolean {
  const { kind } = input;
  if (title !== '') {
    if (ASK_PREFIX.test(title)) return true;
    // A link post's title that ends in "?" is its article's headline ("Is X dead?").
    if (/\?\s*$/u.test(title)) return !input.url;
    // A post's question is in its title; a body full of questions under a plain title is a story.
    return kind === 'post' && /^\s*\S/u.test(body) && ASKING_SENTENCE.test(body.slice(0, 300));
  }
  return ASKING_SENTENCE.test(body) || SHORT_QUESTION.test(body);
}

/**
 * The intents of an item, in the order of `INTENTS`. Reads the title and the first 1,500
 * characters of the body; quoted lines (`> …`, a reply quoting another) are left out, as they
 * say what someone else did.
 */
export function classifyIntents(input: IntentInput): Intent[] {
  // Typographic apostrophes ("doesn’t") read as the plain ones the rules are written with.
  const title = (input.title ?? '').replace(CURLY_APOSTROPHES, "'");
  const body = stripQuotes(input.body.slice(0, BODY_CHARS)).replace(CURLY_APOSTROPHES, "'");
  const text = title === '' ? body : `${title}\n${body}`;
  const found = new Set<Intent>();
  if (isQuestion(input, title, body)) found.add('question');
  if (title !== '' && !input.url && VERSUS_TITLE.test(title)) found.add('comparison');
  for (const [intent, rules] of Object.entries(RULES) as [Intent, readonly RegExp[]][]) {
    // Launch and hiring posts say so in their titles; in a comment, the body is all there is.
    const where = (intent === 'launch' || intent === 'hiring') && title !== '' ? title : text;
    if (rules.some((rule) => rule.test(where))) found.add(intent);
  }
  return INTENTS.filter((intent) => found.has(intent));
}

function stripQuotes(body: string): string {
  if (!body.includes('>')) return body;
  return body
    .split('\n')
    .filter((line) => !/^\s*(?:>|&gt;)/u.test(line))
    .join('\n');
}
