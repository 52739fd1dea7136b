import type { QueryNode } from '../../matcher/query-ast.ts';
import { checkQueryBreadth } from '../../matcher/query-check.ts';
import { parseQuery, QuerySyntaxError } from '../../matcher/query-parser.ts';
import type { QuerySyntaxDetails } from '../../shared/monitor.ts';
import { DomainError, ValidationError } from '../errors.ts';

/**
 * A monitor query that does not parse: 400 VALIDATION_FAILED whose `details` say where (a UTF-16
 * offset counted from 0) and why, so the query field can point at the error.
 */
export class QuerySyntaxInvalidError extends DomainError {
  override name = 'QuerySyntaxInvalidError';
  readonly code = 'VALIDATION_FAILED';
  declare readonly details: QuerySyntaxDetails;

  constructor(error: QuerySyntaxError) {
    super(`The query is not valid at character ${error.position + 1}: ${error.message}`, {
      position: error.position,
      message: error.message,
    });
  }
}

/**
 * Parses a monitor's query and refuses one that would match nearly everything (`*`, `-hiring`,
 * `the`), saying why. The one gate of create, update and preview.
 */
export function checkMonitorQuery(query: string): QueryNode {
  let ast: QueryNode;
  try {
    ast = parseQuery(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new QuerySyntaxInvalidError(error);
    throw error;
  }
  const problems = checkQueryBreadth(ast);
  if (problems.length > 0) {
    throw new ValidationError(
      `The query would match almost everything: ${problems[0]?.message}`,
      problems.map((problem) => ({ path: 'query', message: problem.message })),
    );
  }
  return ast;
}
