-- wrk script for scripts/soak.sh: rotates through everything a link host serves, so a leak on any
-- route (AASA, assetlinks, call pages for every platform, 404s, static files) shows in the RSS.
-- No conditional requests: linkhost's 304s carry the 200's Content-Length (RFC 9110 8.6 allows it), and
-- wrk 4.1's HTTP parser then waits for a body that a 304 never has, stalling the connection; the 304
-- path is covered by the Swift tests instead.
-- Every call page gets a fresh ID (nothing can be served from a cache), and every tenth request asks
-- to close its connection, so accepting and tearing down connections is soaked too.

local paths = {
  "/.well-known/apple-app-site-association",
  "/apple-app-site-association",
  "/.well-known/assetlinks.json",
  "CALL-QUERY",
  "CALL-COLON",
  "/no-such-page",
  "/call/%2e%2e/secret",
  "/",
  "/site.css",
  "/favicon.svg",
  "/healthz",
}
local agents = {
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0",
  "AASA-Bot/1.0.0",
}
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  statuses = {}
end

request = function()
  counter = counter + 1
  local path = paths[(counter % #paths) + 1]
  local headers = { ["Host"] = "links.example.com", ["User-Agent"] = agents[(counter % #agents) + 1] }
  if path == "CALL-QUERY" then
    path = "/call/soak" .. counter .. "?type=video"
  elseif path == "CALL-COLON" then
    path = "/call/audio:soak_" .. counter
  end
  if counter % 10 == 0 then headers["Connection"] = "close" end
  return wrk.format("GET", path, headers)
end

response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

done = function(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    for status, count in pairs(counts) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do
    table.insert(parts, status .. "=" .. count)
  end
  table.sort(parts)
  local errors = summary.errors
  io.write(string.format("soak-wrk: requests=%d statuses=%s errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
    summary.requests, table.concat(parts, ","), errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
