/** `fn` over `inputs` with at most `limit` calls in flight; results in input order; the first error rejects. */
export async function mapLimit<T, R>(
  inputs: readonly T[],
  limit: number,
  fn: (input: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(inputs.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < inputs.length) {
      const at = next++;
      try {
        results[at] = await fn(inputs[at] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return results;
}
