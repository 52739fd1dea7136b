import { NotFoundError } from '../errors.ts';

export const matchNotFound = () =>
  new NotFoundError('There is no such alert. It may have been dismissed.');
