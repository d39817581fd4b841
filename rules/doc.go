// Package rules holds the tests of the project's Firestore security rules
// (../firestore.rules). The tests load the rules into a Firestore emulator that
// the test binary starts, seed documents with the admin client, and then call
// the emulator's REST API as anonymous and signed-in clients (unsigned JWTs),
// asserting which reads are allowed and that every client write is denied.
//
// There is no non-test code here; docs/security.md describes the rules.
package rules
