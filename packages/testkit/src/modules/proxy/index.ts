export { RecordingProxyCallback } from './recording-proxy-callback.js';
export { HttpsCallbackListener, type CallbackAnswer } from './https-callback-listener.js';
