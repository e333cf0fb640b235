-- wrk script for the reload test: counts responses per wall-clock second in every wrk thread,
-- then prints one "bucket SECOND COUNT" line per second (and "status STATUS COUNT" per status).
-- Defining response() makes wrk hand each response to Lua, which costs wrk some throughput;
-- the cost is the same for both servers and for every second of a run.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  buckets = {}
  statuses = {}
end

function response(status, headers, body)
  local now = os.time()
  buckets[now] = (buckets[now] or 0) + 1
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total, codes = {}, {}
  for _, thread in ipairs(threads) do
    for second, count in pairs(thread:get("buckets")) do total[second] = (total[second] or 0) + count end
    for status, count in pairs(thread:get("statuses")) do codes[status] = (codes[status] or 0) + count end
  end
  for second, count in pairs(total) do io.write(string.format("bucket %d %d\n", second, count)) end
  for status, count in pairs(codes) do io.write(string.format("status %d %d\n", status, count)) end
end
