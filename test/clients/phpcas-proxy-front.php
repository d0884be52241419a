<?php
// A portal protected by phpCAS in proxy mode, served by Apache over HTTPS: it answers, as JSON, whom
// phpCAS authenticated and what the back end answered to a request made with a proxy ticket.
// The same URL is its PGT callback (phpCAS's default): tessera calls it with pgtIou and pgtId, and
// phpCAS stores the PGT in DATA_DIR. Settings come from Apache's SetEnv: CAS_HOST, CAS_PORT, CAS_URI,
// CAS_CA_FILE, SERVICE_BASE_URL (https://host:port of this portal), DATA_DIR and BACKEND_URL.
require_once 'CAS.php';

function setting($name) {
    return $_SERVER[$name] ?? getenv($name);
}

ob_start();
header('Content-Type: application/json');
phpCAS::proxy(CAS_VERSION_3_0, setting('CAS_HOST'), (int) setting('CAS_PORT'), setting('CAS_URI'), setting('SERVICE_BASE_URL'));
phpCAS::setCasServerCACert(setting('CAS_CA_FILE'));
phpCAS::setPGTStorageFile(setting('DATA_DIR'));
try {
    // A callback request stores its PGT and ends here; one with ?ticket= validates it with pgtUrl and
    // redirects to the page without it; one with the session goes on.
    phpCAS::forceAuthentication();
    $backend = phpCAS::getProxiedService(PHPCAS_PROXIED_SERVICE_HTTP_GET);
    $backend->setUrl(setting('BACKEND_URL'));
    $backend->send();
    ob_end_clean();
    echo json_encode([
        'user' => phpCAS::getUser(),
        'backendStatus' => $backend->getResponseStatusCode(),
        'backend' => json_decode($backend->getResponseBody(), true),
    ]);
} catch (CAS_AuthenticationException $failure) {
    ob_end_clean();
    http_response_code(401);
    echo json_encode(['error' => $failure->getMessage()]);
} catch (CAS_ProxyTicketException $failure) {
    ob_end_clean();
    http_response_code(502);
    echo json_encode(['error' => $failure->getMessage()]);
}
