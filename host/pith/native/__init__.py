"""The native-messaging side: what the browser extension talks to.

Bytes on the pipe (framing), the meaning of a message (protocol), the stdio loop (host), the
per-request time limit (deadline), and registering the host with the browsers (install; the
host-manifest templates chrome.json and firefox.json sit beside it). It may import the root
(pith and pith.errors), the pipeline and itself.
"""
