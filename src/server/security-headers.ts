/**
 * Headers on every response. The viewer loads only its own files: no inline script or style, no
 * third-party origin, no framing; DOM sinks that parse HTML are disabled with Trusted Types (the
 * page builds its DOM with `textContent`, so no string ever becomes markup).
 */

/** CSP of the viewer page and its assets. */
export const VIEWER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "manifest-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");

/** CSP of API responses: JSON is never a document that loads anything. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const COMMON: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

/** The security headers for a response of this kind. */
export function securityHeaders(kind: "viewer" | "api"): Record<string, string> {
  return { ...COMMON, "content-security-policy": kind === "viewer" ? VIEWER_CSP : API_CSP };
}
