-- wrk script for bench-content: GET of a path drawn at random from a file (one path a line), with the headers a
-- browser's fetch from a shop page sends; counts what was not a 200. The floor (/healthz) and the content requests
-- go through this same script, so both runs pay the same client-side costs.
--
--   wrk -t2 -c32 -d10s --latency -s paths.lua http://127.0.0.1:PORT -- PATHS_FILE ORIGIN
--
-- At the end done() prints the lines bench-content parses:
--   bench-content-lua: responses N non200 N socket_connect N socket_read N socket_write N socket_timeout N
--   bench-content-lua: latency_us p50 N p90 N p99 N max N

local threads = {}
local counter = 0

function setup(thread)
   counter = counter + 1
   thread:set("thread_number", counter)
   table.insert(threads, thread)
end

responses = 0
non200 = 0

local requests = {}

function init(args)
   math.randomseed(os.time() * 1000 + (thread_number or 0) * 7919)
   local origin = args[2]
   local headers = {}
   if origin and origin ~= "" then
      headers["Origin"] = origin
      headers["Referer"] = origin .. "/p/product.html"
   end
   headers["Accept"] = "*/*"
   for path in io.lines(args[1]) do
      if path ~= "" then requests[#requests + 1] = wrk.format("GET", path, headers) end
   end
   assert(#requests > 0, "paths.lua: no paths in " .. tostring(args[1]))
end

function request()
   return requests[math.random(#requests)]
end

function response(status, headers, body)
   responses = responses + 1
   if status ~= 200 then non200 = non200 + 1 end
end

function done(summary, latency, requests_)
   local total = {responses = 0, non200 = 0}
   for _, thread in ipairs(threads) do
      for key in pairs(total) do total[key] = total[key] + (thread:get(key) or 0) end
   end
   local e = summary.errors
   io.write(string.format(
      "bench-content-lua: responses %d non200 %d socket_connect %d socket_read %d socket_write %d socket_timeout %d\n",
      total.responses, total.non200, e.connect, e.read, e.write, e.timeout))
   io.write(string.format("bench-content-lua: latency_us p50 %d p90 %d p99 %d max %d\n",
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
