#!/usr/bin/perl
# Validates one ticket with Authen::CAS::Client and prints, as one JSON object, what the client concluded.
# Usage: authen-cas-client.pl <https cas base URL> <CA file> <validate|service_validate|proxy_validate> <service> <ticket>
use strict;
use warnings;
use Authen::CAS::Client;
use JSON::PP;
use XML::LibXML::XPathContext;

my ( $cas_url, $ca_file, $method, $service, $ticket ) = @ARGV;
die "usage: $0 <cas-url> <ca-file> <method> <service> <ticket>\n" unless defined $ticket;

# The client's LWP::UserAgent takes its CA from the environment when it is made (HTTPS_CA_FILE would also
# switch off its host name check, PERL_LWP_SSL_CA_FILE keeps it).
$ENV{PERL_LWP_SSL_CA_FILE} = $ca_file;
my $cas      = Authen::CAS::Client->new($cas_url);
my $response = $cas->$method( $service, $ticket );
my %outcome;
if ( $response->is_success ) {
  %outcome = ( outcome => 'success', user => $response->user, attributes => attributes_of( $response->doc ) );
}
elsif ( $response->is_failure ) {
  %outcome = ( outcome => 'failure', code => $response->code, message => $response->message );
}
else {
  %outcome = ( outcome => 'error', error => $response->error );
}
print JSON::PP->new->canonical->encode( \%outcome ), "\n";

# The client hands back the parsed response document; CAS 2 attributes are read from it by name.
sub attributes_of {
  my ($doc) = @_;
  my %attributes;
  return \%attributes unless ref $doc;
  my $xpath = XML::LibXML::XPathContext->new($doc);
  $xpath->registerNs( cas => 'http://www.yale.edu/tp/cas' );
  for my $node ( $xpath->findnodes('/cas:serviceResponse/cas:authenticationSuccess/cas:attributes/*') ) {
    push @{ $attributes{ $node->localname } }, $node->textContent;
  }
  return \%attributes;
}
