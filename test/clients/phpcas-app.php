<?php
// A page protected by phpCAS, served by `php -S`: it answers, as JSON, whom phpCAS authenticated.
// Settings come from the environment: CAS_HOST, CAS_PORT, CAS_URI (the CAS server, always HTTPS for phpCAS),
// CAS_CA_FILE (its CA certificate) and SERVICE_BASE_URL (this page's scheme://host:port); CAS_PROTOCOL=saml11
// makes phpCAS validate with SAML 1.1 at /samlValidate instead of CAS 3.0.
require_once 'CAS.php';

ob_start();
header('Content-Type: application/json');
phpCAS::client(getenv('CAS_PROTOCOL') === 'saml11' ? SAML_VERSION_1_1 : CAS_VERSION_3_0, getenv('CAS_HOST'), (int) getenv('CAS_PORT'), getenv('CAS_URI'), getenv('SERVICE_BASE_URL'));
phpCAS::setCasServerCACert(getenv('CAS_CA_FILE'));
try {
    // Without a session: validates ?ticket=, stores the user in the session and redirects to the page without it.
    phpCAS::forceAuthentication();
    ob_end_clean();
    echo json_encode(['user' => phpCAS::getUser(), 'attributes' => phpCAS::getAttributes()]);
} catch (CAS_AuthenticationException $failure) {
    // phpCAS has already printed its HTML error page: replace it with the reason it gave.
    ob_end_clean();
    http_response_code(401);
    echo json_encode(['error' => $failure->getMessage()]);
}
