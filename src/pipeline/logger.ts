/** The part of the process logger (pino) the pipeline uses, so it needs nothing from src/server. */
export type PipelineLogger = {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
  debug(object: object, message?: string): void;
};
