<?php
declare(strict_types=1);

/** App\Models holds the models. */
namespace App\Models;

use App\Contracts\{Repository, Cache};
use Psr\Log\LoggerInterface as Logger;
use function App\Support\helper;
use const App\Support\VERSION;

require_once __DIR__ . '/bootstrap.php';

/** MAX_USERS caps the user count. */
const MAX_USERS = 100;

define('LEGACY_FLAG', true);

$config = ['debug' => true];
$config = ['debug' => false];

/**
 * HasName gives a name.
 */
interface HasName extends \Stringable, Countable
{
    const PREFIX = "n:";

    /** Returns the name. */
    public function getName(): string;
}

/** Timestamps records times. */
trait Timestamps
{
    protected ?int $createdAt = null;

    public function touch(): void
    {
        $this->createdAt = time();
    }
}

/** Status of a user. */
enum Status: string implements HasLabel
{
    case Active = 'active';
    /** Banned users. */
    case Banned = 'banned';

    public function label(): string
    {
        return ucfirst($this->value);
    }
}

/**
 * User is a person.
 */
#[Entity(table: "users")]
abstract class User extends Model implements HasName, \JsonSerializable
{
    use Timestamps;

    public const ROLE = 'user';
    private const SECRET = 'x';

    /** The user's name. */
    public string $name;
    protected static int $count = 0;
    private array $größe = [];
    var $legacy;

    /** Builds a user. */
    public function __construct(private Logger $logger, string $name = "anon")
    {
        parent::__construct();
        $this->name = $name;
        self::$count++;
    }

    public function __destruct()
    {
        $this->logger->info("bye");
    }

    public function getName(): string
    {
        return helper($this->name, MAX_USERS);
    }

    protected static function create(string $name): static
    {
        return new static(new NullLogger(), $name);
    }

    abstract protected function role(): Status;

    private function secret(): ?string
    {
        return Status::from(self::SECRET)?->label();
    }

    function legacyMethod() {}
}

/** Makes a user. */
function make_user(string $name): User
{
    $cb = function (int $x) use ($name): int { return $x; };
    $arrow = fn($y) => $y + 1;
    return User::create($name);
}
