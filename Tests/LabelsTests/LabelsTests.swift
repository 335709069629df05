import Testing
@testable import Labels
