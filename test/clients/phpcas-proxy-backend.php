<?php
// A back end protected by phpCAS (CAS_VERSION_2_0, so /proxyValidate), served by `php -S`: it accepts
// proxy tickets from the one proxy chain in PROXY_CALLBACK and answers, as JSON, whom the ticket speaks
// for and the proxies it passed through. Other settings as phpcas-app.php.
require_once 'CAS.php';

ob_start();
header('Content-Type: application/json');
phpCAS::client(CAS_VERSION_2_0, getenv('CAS_HOST'), (int) getenv('CAS_PORT'), getenv('CAS_URI'), getenv('SERVICE_BASE_URL'));
phpCAS::setCasServerCACert(getenv('CAS_CA_FILE'));
phpCAS::allowProxyChain(new CAS_ProxyChain([getenv('PROXY_CALLBACK')]));
// Answer the validating request itself: the proxies are known there, not after a redirect.
phpCAS::setNoClearTicketsFromUrl();
try {
    phpCAS::forceAuthentication();
    ob_end_clean();
    echo json_encode(['user' => phpCAS::getUser(), 'proxies' => phpCAS::getProxies()]);
} catch (CAS_AuthenticationException $failure) {
    ob_end_clean();
    http_response_code(401);
    echo json_encode(['error' => $failure->getMessage()]);
}
