"""The web server: thin adapters between HTTP/WebSocket, storage, pub/sub and the engines."""
