#!/usr/bin/perl
# Validates one ticket with Authen::CAS::Client and prints, as one JSON object, what the client concluded.
# Usage: authen-cas-client.pl <cas base URL> <validate|service_validate|proxy_validate> <service> <ticket>
use strict;
use warnings;
use Authen::CAS::Client;
use JSON::PP;
use XML::LibXML::XPathContext;

my ( $cas_url, $method, $service, $ticket ) = @ARGV;
die "usage: $0 <cas-url> <method> <service> <ticket>\n" unless defined $ticket;

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
