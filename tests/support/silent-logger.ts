import type { PipelineLogger } from '../../src/pipeline/logger.ts';

/** A pipeline logger that says nothing, for harnesses whose output is not the subject. */
export const silentLogger: PipelineLogger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
};
