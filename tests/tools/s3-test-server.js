#!/usr/bin/env node
// The S3-compatible server of the pull tests: s3rver (npm), on a free loopback port, behind a front
// that checks AWS Signature V4 (s3rver accepts any V4 signature; real S3 does not), so the tests see
// what a bucket says to a wrong secret. Written for the tests from the signing spec:
// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
//
//   node s3-test-server.js <s3rver module dir> <data dir> <manifest.json>
// manifest: {"accessKey", "secretKey", "privateBuckets": [...], "objects": [{"bucket", "key", "file",
// "contentType", "contentEncoding"?}]}. Objects are uploaded before the line "listening <port>" is
// printed. Reads of a private bucket need a valid signature; other requests pass unsigned.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const http = require('http');

const [moduleDir, dataDir, manifestPath] = process.argv.slice(2);
const S3rver = require(moduleDir);
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const buckets = [...new Set([...manifest.privateBuckets, ...manifest.objects.map((o) => o.bucket)])];

const hmac = (key, text) => crypto.createHmac('sha256', key).update(text).digest();
const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');

function s3Error(res, status, code, message) {
  res.writeHead(status, { 'Content-Type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

// null when the request carries a valid signature of our access key, otherwise [status, code, message].
function checkSignature(req) {
  const authorization = req.headers.authorization;
  if (!authorization) return [403, 'AccessDenied', 'Access Denied'];
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
    authorization,
  );
  if (!match) return [400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed'];
  const [, accessKey, day, region, signedHeaders, signature] = match;
  if (accessKey !== manifest.accessKey) return [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist'];
  const payloadHash = req.headers['x-amz-content-sha256'];
  const amzDate = req.headers['x-amz-date'];
  if (!payloadHash || !amzDate) return [400, 'InvalidRequest', 'Missing x-amz-content-sha256 or x-amz-date'];
  const url = new URL(req.url, 'http://front');
  const query = [...url.searchParams]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)])
    .sort()
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders.split(';');
  const headers = names.map((name) => `${name}:${String(req.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  let key = hmac('AWS4' + manifest.secretKey, day);
  for (const part of [region, 's3', 'aws4_request']) key = hmac(key, part);
  const expected = hmac(key, toSign).toString('hex');
  if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return [403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided'];
  }
  return null;
}

async function main() {
  const s3 = new S3rver({ silent: true, directory: dataDir, configureBuckets: buckets.map((name) => ({ name })) });
  await s3.configureBuckets();
  const handle = s3.callback();
  const server = http.createServer((req, res) => {
    const bucket = new URL(req.url, 'http://front').pathname.split('/')[1];
    const reading = req.method === 'GET' || req.method === 'HEAD';
    if (req.headers.authorization || (reading && manifest.privateBuckets.includes(bucket))) {
      const refusal = checkSignature(req);
      if (refusal) return s3Error(res, ...refusal);
      delete req.headers.authorization;  // checked here; s3rver knows only its own key
    }
    return handle(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  for (const object of manifest.objects) {
    const body = fs.readFileSync(object.file);
    const headers = { 'Content-Type': object.contentType, 'Content-Length': body.length };
    if (object.contentEncoding) headers['Content-Encoding'] = object.contentEncoding;
    await new Promise((resolve, reject) => {
      const put = http.request({ host: '127.0.0.1', port, method: 'PUT', path: `/${object.bucket}/${object.key}`, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT ${object.key}: ${res.statusCode}`))));
      });
      put.on('error', reject);
      put.end(body);
    });
  }
  process.stdout.write(`listening ${port}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`s3-test-server: ${error.stack}\n`);
  process.exit(1);
});
