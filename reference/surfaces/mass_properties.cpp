// Placeholder: mass properties are being written.
namespace contactref::surfaces {}
