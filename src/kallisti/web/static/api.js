// The JSON API of `kallisti serve` (docs/web.md): one function, one request at a time.

let queue = Promise.resolve();

/**
 * `method` `/api` + `path`, with `body` as JSON. Resolves to {status, data}: `data` is the answer's JSON,
 * or an error object of the API's shape when the server could not be reached or answered something else.
 * Requests are sent one after another, in the order asked, so answers never overtake each other.
 */
export function api(method, path, body) {
  const run = async () => {
    const opts = {method, headers: {Accept: "application/json"}};
    if (method !== "GET" && method !== "HEAD") {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body ?? {});
    }
    let res;
    try {
      res = await fetch(`/api${path}`, opts);
    } catch (err) {
      return {status: 0, data: {ok: false, error: {code: "offline", message: "the server cannot be reached: is `kallisti serve` still running?", findings: []}}};
    }
    let data;
    try {
      data = await res.json();
    } catch (err) {
      data = {ok: false, error: {code: "bad-answer", message: `the server answered ${res.status} without JSON`, findings: []}};
    }
    return {status: res.status, data};
  };
  const next = queue.then(run, run);
  queue = next.catch(() => {});
  return next;
}

/** The refusal or error of an answer in words ("" for a success). */
export function trouble(answer) {
  const d = answer.data || {};
  if (d.refused) return d.refused;
  if (d.error) return d.error.message;
  return answer.status >= 400 ? `the server answered ${answer.status}` : "";
}
